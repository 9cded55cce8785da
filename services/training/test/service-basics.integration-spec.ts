import { describeServiceBasics } from '@likeness/testing';
import { trainingService } from '../src/training.service-definition.js';

describeServiceBasics(trainingService);
