import { ServiceKitModule } from '@likeness/nest-kit';
import { type DynamicModule, Module } from '@nestjs/common';
import { AvatarsZipService } from './avatars/avatars-zip.service.js';
import { AvatarsService } from './avatars/avatars.service.js';
import { GenerationListener } from './avatars/generation.listener.js';
import { mediaDatabase } from './database/media-database.js';
import { PurgeUserObjectsProcessor } from './erasure/purge-user-objects.processor.js';
import { UserDeletedListener } from './erasure/user-deleted.listener.js';
import { UserErasure } from './erasure/user-erasure.service.js';
import { FilesService } from './files/files.service.js';
import { ImageUrls } from './files/image-urls.js';
import { ImageFormatterService } from './formatter/image-formatter.service.js';
import { PixelBudget } from './limits/pixel-budget.js';
import { MediaController } from './media.controller.js';
import type { MediaConfig } from './media.config.js';
import { SelfieUploadService } from './selfies/selfie-upload.service.js';
import { SelfiesService } from './selfies/selfies.service.js';
import { StorageLifecycle, objectStorageProvider } from './storage/storage.providers.js';
import { TrainingArchiveService } from './training/training-archive.service.js';
import { TrainingListener } from './training/training.listener.js';

@Module({})
export class AppModule {
  static forRoot(config: MediaConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceKitModule.forRoot({ service: 'media', config, database: mediaDatabase(config) })],
      controllers: [MediaController],
      providers: [
        objectStorageProvider,
        StorageLifecycle,
        ImageUrls,
        SelfiesService,
        SelfieUploadService,
        AvatarsService,
        AvatarsZipService,
        FilesService,
        ImageFormatterService,
        PixelBudget,
        TrainingArchiveService,
        TrainingListener,
        GenerationListener,
        UserErasure,
        UserDeletedListener,
        PurgeUserObjectsProcessor,
      ],
    };
  }
}
