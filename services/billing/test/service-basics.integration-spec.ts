import { describeServiceBasics } from '@likeness/testing';
import { billingService } from '../src/billing.service-definition.js';

describeServiceBasics(billingService);
