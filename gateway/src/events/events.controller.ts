import { eventStreamRoute } from '@likeness/contracts';
import { Controller, Get, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentUser } from '../auth/current-user.decorator.js';
import type { AuthenticatedUser } from '../auth/jwt.strategy.js';
import { SessionGuard } from '../auth/session.guard.js';
import { EventStreams, parseLastEventId } from './event-streams.js';

/** `GET /api/events`: the signed-in user's live events as server-sent events (see EventStreams). */
@Controller()
@UseGuards(SessionGuard)
export class EventsController {
  constructor(private readonly streams: EventStreams) {}

  @Get(eventStreamRoute.path)
  stream(@CurrentUser() user: AuthenticatedUser, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const body = this.streams.open(user, parseLastEventId(request.headers['last-event-id']));
    // The browser went away: the stream ends with it, whatever Fastify makes of it.
    reply.raw.once('close', () => body.destroy());
    void reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-accel-buffering', 'no')
      .send(body);
  }
}
