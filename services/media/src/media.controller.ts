import { MediaRpc, type RpcRequest } from '@likeness/contracts';
import { RpcHandler } from '@likeness/nest-kit';
import { Controller } from '@nestjs/common';
import { AvatarsService } from './avatars/avatars.service.js';
import { SelfiesService } from './selfies/selfies.service.js';
import { TrainingArchiveService } from './training/training-archive.service.js';

/** Metadata over NATS; image bytes go over the internal HTTP routes (see internal-http/). */
@Controller()
export class MediaController {
  constructor(
    private readonly selfies: SelfiesService,
    private readonly avatars: AvatarsService,
    private readonly archives: TrainingArchiveService,
  ) {}

  @RpcHandler(MediaRpc.listSelfies)
  listSelfies(request: RpcRequest<typeof MediaRpc.listSelfies>) {
    return this.selfies.list(request.userId);
  }

  @RpcHandler(MediaRpc.deleteSelfie)
  deleteSelfie(request: RpcRequest<typeof MediaRpc.deleteSelfie>) {
    return this.selfies.delete(request.userId, request.id);
  }

  @RpcHandler(MediaRpc.lockSelfiesForTraining)
  lockSelfiesForTraining(request: RpcRequest<typeof MediaRpc.lockSelfiesForTraining>) {
    return this.selfies.lockForTraining(request);
  }

  @RpcHandler(MediaRpc.releaseSelfies)
  releaseSelfies(request: RpcRequest<typeof MediaRpc.releaseSelfies>) {
    return this.selfies.release(request.userId, request.modelId);
  }

  @RpcHandler(MediaRpc.createTrainingArchive)
  createTrainingArchive(request: RpcRequest<typeof MediaRpc.createTrainingArchive>) {
    return this.archives.create(request);
  }

  @RpcHandler(MediaRpc.listAvatars)
  listAvatars(request: RpcRequest<typeof MediaRpc.listAvatars>) {
    return this.avatars.list(request);
  }

  @RpcHandler(MediaRpc.setAvatarFavourite)
  setAvatarFavourite(request: RpcRequest<typeof MediaRpc.setAvatarFavourite>) {
    return this.avatars.setFavourite(request.userId, request.id, request.favourite);
  }

  @RpcHandler(MediaRpc.bulkDeleteAvatars)
  bulkDeleteAvatars(request: RpcRequest<typeof MediaRpc.bulkDeleteAvatars>) {
    return this.avatars.deleteMany(request.userId, request.ids);
  }

  @RpcHandler(MediaRpc.deleteAvatar)
  deleteAvatar(request: RpcRequest<typeof MediaRpc.deleteAvatar>) {
    return this.avatars.delete(request.userId, request.id);
  }

  @RpcHandler(MediaRpc.storeAvatar)
  storeAvatar(request: RpcRequest<typeof MediaRpc.storeAvatar>) {
    return this.avatars.store(request);
  }
}
