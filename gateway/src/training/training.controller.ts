import {
  TrainingRpc,
  type TrainModelRequest,
  customModelsRoute,
  deleteCustomModelRoute,
  inferenceConfigRoute,
  trainModelRoute,
} from '@likeness/contracts';
import { RpcClient } from '@likeness/nest-kit';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import type { z } from 'zod';
import { CurrentUser } from '../auth/current-user.decorator.js';
import type { AuthenticatedUser } from '../auth/access-tokens.js';
import { SessionGuard } from '../auth/session.guard.js';
import { ZodBodyPipe } from '../http/zod-body.pipe.js';
import { ZodPipe, nestPath } from '../http/zod-params.pipe.js';

const TRAIN_TIMEOUT_MS = 60_000;

@Controller()
export class TrainingController {
  constructor(private readonly rpc: RpcClient) {}

  @Post(trainModelRoute.path)
  @HttpCode(201)
  @UseGuards(SessionGuard)
  train(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodBodyPipe(trainModelRoute.body)) body: z.output<typeof trainModelRoute.body>,
  ) {
    return this.rpc.call(
      TrainingRpc.trainModel,
      { ...(body as TrainModelRequest), userId: user.id },
      // With Replicate, starting includes zipping the selfies and creating the training.
      { timeoutMs: TRAIN_TIMEOUT_MS },
    );
  }

  @Get(customModelsRoute.path)
  @UseGuards(SessionGuard)
  models(@CurrentUser() user: AuthenticatedUser) {
    return this.rpc.call(TrainingRpc.listModels, { userId: user.id });
  }

  @Delete(nestPath(deleteCustomModelRoute.path))
  @UseGuards(SessionGuard)
  deleteModel(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', new ZodPipe(deleteCustomModelRoute.params.shape.id)) id: number,
  ) {
    return this.rpc.call(TrainingRpc.deleteModel, { userId: user.id, id });
  }

  @Get(inferenceConfigRoute.path)
  inferenceConfig() {
    return this.rpc.call(TrainingRpc.getInferenceConfig, {});
  }
}
