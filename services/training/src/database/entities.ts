import { CustomModel } from '../models/custom-model.entity.js';
import { WebhookDelivery } from '../webhooks/webhook-delivery.entity.js';

/** The service's own tables (the outbox and inbox come with the kit). */
export const entities: Function[] = [CustomModel, WebhookDelivery];
