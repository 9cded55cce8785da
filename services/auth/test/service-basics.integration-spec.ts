import { describeServiceBasics } from '@likeness/testing';
import { authService } from '../src/auth.service-definition.js';

describeServiceBasics(authService);
