import {
  type ImageFormatterQuery,
  MediaInternalHttp,
  MediaRpc,
  SELFIE_LIMITS,
  avatarsQuerySchema,
  avatarsRoute,
  avatarsZipQuerySchema,
  avatarsZipRoute,
  bulkDeleteAvatarsRoute,
  deleteAvatarRoute,
  favouriteAvatarRoute,
  deleteUploadedImageRoute,
  imageFormatterQuerySchema,
  imageFormatterRoute,
  uploadSelfiesRoute,
  uploadedImagesRoute,
} from '@likeness/contracts';
import { DomainError, RpcClient } from '@likeness/nest-kit';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentUser } from '../auth/current-user.decorator.js';
import type { AuthenticatedUser } from '../auth/access-tokens.js';
import { SessionGuard } from '../auth/session.guard.js';
import { UserRateLimit } from '../auth/user-rate-limit.guard.js';
import { ZodBodyPipe } from '../http/zod-body.pipe.js';
import { ZodPipe, nestPath } from '../http/zod-params.pipe.js';
import { MediaHttpClient } from './media-http.client.js';

/** Room for the multipart framing around the largest allowed upload. */
export const MAX_UPLOAD_BYTES = SELFIE_LIMITS.maxPerUpload * SELFIE_LIMITS.maxFileBytes + 2 * 1024 * 1024;

@Controller()
@UseGuards(SessionGuard)
export class MediaController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly media: MediaHttpClient,
  ) {}

  @Post(uploadSelfiesRoute.path)
  @UserRateLimit('uploads')
  uploadSelfies(@CurrentUser() user: AuthenticatedUser, @Req() request: FastifyRequest) {
    const contentType = request.headers['content-type'] ?? '';
    if (!contentType.toLowerCase().startsWith('multipart/form-data')) {
      throw new DomainError(
        'COMMON.VALIDATION_FAILED',
        'Send the images as multipart/form-data, in fields named "selfies".',
      );
    }
    const declared = Number(request.headers['content-length']);
    if (declared > MAX_UPLOAD_BYTES) {
      throw new DomainError(
        'COMMON.PAYLOAD_TOO_LARGE',
        'The upload is too large. Send at most 20 images of 5 MB each.',
      );
    }
    return this.media.json(MediaInternalHttp.uploadSelfies, {
      userId: user.id,
      body: request.raw,
      headers: {
        'content-type': contentType,
        ...(request.headers['content-length'] ? { 'content-length': request.headers['content-length'] } : {}),
      },
      maxBodyBytes: MAX_UPLOAD_BYTES,
    });
  }

  @Get(uploadedImagesRoute.path)
  uploadedImages(@CurrentUser() user: AuthenticatedUser) {
    return this.rpc.call(MediaRpc.listSelfies, { userId: user.id });
  }

  @Delete(nestPath(deleteUploadedImageRoute.path))
  deleteUploadedImage(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', new ZodPipe(deleteUploadedImageRoute.params.shape.id)) id: number,
  ) {
    return this.rpc.call(MediaRpc.deleteSelfie, { userId: user.id, id });
  }

  @Get(avatarsRoute.path)
  avatars(
    @CurrentUser() user: AuthenticatedUser,
    @Query(new ZodPipe(avatarsQuerySchema)) query: z.output<typeof avatarsQuerySchema>,
  ) {
    return this.rpc.call(MediaRpc.listAvatars, { userId: user.id, ...query });
  }

  @Get(avatarsZipRoute.path)
  avatarsZip(
    @CurrentUser() user: AuthenticatedUser,
    @Query(new ZodPipe(avatarsZipQuerySchema)) query: z.output<typeof avatarsZipQuerySchema>,
    @Res() reply: FastifyReply,
  ) {
    return this.media.relayBytes(MediaInternalHttp.avatarsZip, { query, userId: user.id }, reply);
  }

  @Put(nestPath(favouriteAvatarRoute.path))
  favouriteAvatar(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', new ZodPipe(favouriteAvatarRoute.params.shape.id)) id: number,
    @Body(new ZodBodyPipe(favouriteAvatarRoute.body)) body: z.output<typeof favouriteAvatarRoute.body>,
  ) {
    return this.rpc.call(MediaRpc.setAvatarFavourite, { userId: user.id, id, favourite: body.favourite });
  }

  @Post(bulkDeleteAvatarsRoute.path)
  @HttpCode(200)
  bulkDeleteAvatars(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodBodyPipe(bulkDeleteAvatarsRoute.body)) body: z.output<typeof bulkDeleteAvatarsRoute.body>,
  ) {
    return this.rpc.call(MediaRpc.bulkDeleteAvatars, { userId: user.id, ids: body.ids });
  }

  @Delete(nestPath(deleteAvatarRoute.path))
  deleteAvatar(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', new ZodPipe(deleteAvatarRoute.params.shape.id)) id: number,
  ) {
    return this.rpc.call(MediaRpc.deleteAvatar, { userId: user.id, id });
  }

  @Get(imageFormatterRoute.path)
  @UserRateLimit('imageConversions')
  imageFormatter(
    @CurrentUser() user: AuthenticatedUser,
    @Query(new ZodPipe(imageFormatterQuerySchema)) query: ImageFormatterQuery,
    @Res() reply: FastifyReply,
  ) {
    return this.media.relayBytes(MediaInternalHttp.formatImage, { query, userId: user.id }, reply);
  }
}
