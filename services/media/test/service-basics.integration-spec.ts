import { describeServiceBasics } from '@likeness/testing';
import { mediaService } from '../src/media.service-definition.js';

describeServiceBasics(mediaService);
