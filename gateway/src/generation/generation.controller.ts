import {
  type GenerateAvatarRequest,
  GenerationRpc,
  generateAvatarRoute,
  generationJobRoute,
  generationJobsRoute,
} from '@likeness/contracts';
import { RpcClient } from '@likeness/nest-kit';
import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import type { z } from 'zod';
import { CurrentUser } from '../auth/current-user.decorator.js';
import type { AuthenticatedUser } from '../auth/access-tokens.js';
import { SessionGuard } from '../auth/session.guard.js';
import { ZodBodyPipe } from '../http/zod-body.pipe.js';
import { ZodPipe, nestPath } from '../http/zod-params.pipe.js';

@Controller()
@UseGuards(SessionGuard)
export class GenerationController {
  constructor(private readonly rpc: RpcClient) {}

  @Post(generateAvatarRoute.path)
  @HttpCode(201)
  generate(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodBodyPipe(generateAvatarRoute.body)) body: z.output<typeof generateAvatarRoute.body>,
  ) {
    return this.rpc.call(GenerationRpc.generateAvatar, { ...(body as GenerateAvatarRequest), userId: user.id });
  }

  @Get(generationJobsRoute.path)
  jobs(@CurrentUser() user: AuthenticatedUser) {
    return this.rpc.call(GenerationRpc.listJobs, { userId: user.id });
  }

  @Get(nestPath(generationJobRoute.path))
  job(
    @CurrentUser() user: AuthenticatedUser,
    @Param('jobId', new ZodPipe(generationJobRoute.params.shape.jobId)) jobId: string,
  ) {
    return this.rpc.call(GenerationRpc.getJob, { userId: user.id, jobId });
  }
}
