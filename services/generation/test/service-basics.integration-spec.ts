import { describeServiceBasics } from '@likeness/testing';
import { generationService } from '../src/generation.service-definition.js';

describeServiceBasics(generationService);
