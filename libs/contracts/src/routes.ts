import type { HttpRoute } from './http.js';
import {
  authMeRoute,
  changePasswordRoute,
  currentUserRoute,
  deleteAccountRoute,
  loginRoute,
  logoutRoute,
  registerRoute,
  requestPasswordResetRoute,
  resetPasswordRoute,
} from './auth/auth.http.js';
import {
  confirmPaymentRoute,
  createPaymentIntentRoute,
  creditHistoryRoute,
  creditPackagesRoute,
  localPaymentConfirmRoute,
  paymentConfigRoute,
  stripeWebhookRoute,
} from './billing/billing.http.js';
import {
  avatarsRoute,
  deleteAvatarRoute,
  deleteUploadedImageRoute,
  fileRoute,
  imageFormatterRoute,
  sharedAvatarRoute,
  uploadSelfiesRoute,
  uploadedImagesRoute,
} from './media/media.http.js';
import {
  customModelsRoute,
  deleteCustomModelRoute,
  inferenceConfigRoute,
  replicateWebhookRoute,
  trainModelRoute,
} from './training/training.http.js';
import { generateAvatarRoute, generationJobRoute, generationJobsRoute } from './generation/generation.http.js';
import { appConfigRoute, openApiDocumentRoute } from './system/system.http.js';

/** Every public route of the gateway, in the order the OpenAPI document lists them. */
export const httpRoutes: readonly HttpRoute[] = [
  registerRoute,
  loginRoute,
  logoutRoute,
  currentUserRoute,
  authMeRoute,
  requestPasswordResetRoute,
  resetPasswordRoute,
  changePasswordRoute,
  deleteAccountRoute,
  creditPackagesRoute,
  paymentConfigRoute,
  createPaymentIntentRoute,
  confirmPaymentRoute,
  localPaymentConfirmRoute,
  stripeWebhookRoute,
  creditHistoryRoute,
  uploadSelfiesRoute,
  uploadedImagesRoute,
  deleteUploadedImageRoute,
  avatarsRoute,
  deleteAvatarRoute,
  imageFormatterRoute,
  fileRoute,
  sharedAvatarRoute,
  trainModelRoute,
  customModelsRoute,
  deleteCustomModelRoute,
  inferenceConfigRoute,
  replicateWebhookRoute,
  generateAvatarRoute,
  generationJobsRoute,
  generationJobRoute,
  appConfigRoute,
  openApiDocumentRoute,
];
