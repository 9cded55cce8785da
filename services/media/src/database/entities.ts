import { Avatar } from '../avatars/avatar.entity.js';
import { ErasedUser } from '../erasure/erased-user.entity.js';
import { TrainingLock } from '../selfies/training-lock.entity.js';
import { UploadedImage } from '../selfies/uploaded-image.entity.js';

/** The service's own tables (the outbox and inbox come with the kit). */
export const entities: Function[] = [UploadedImage, TrainingLock, Avatar, ErasedUser];
