import { describeServiceBasics } from '@likeness/testing';
import { reportingService } from '../src/reporting.service-definition.js';

describeServiceBasics(reportingService);
