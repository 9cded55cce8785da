import type { OutgoingHttpHeaders } from 'node:http';
import { eventStreamRoute } from '@likeness/contracts';
import { Controller, Get, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentUser } from '../auth/current-user.decorator.js';
import type { AuthenticatedUser } from '../auth/access-tokens.js';
import { SessionGuard } from '../auth/session.guard.js';
import { SECURITY_HEADERS } from '../http/security-headers.js';
import { EventStreams, parseLastEventId } from './event-streams.js';

/**
 * `GET /api/events`: the signed-in user's live events as server-sent events (see EventStreams).
 * The stream is written straight to Node's response, taken over from Fastify once it is allowed:
 * a stream is held for hours, thousands at once, and what Fastify and Nest keep for an answer
 * still being sent (a piped body, its end-of-stream watchers, Nest's handler awaiting the reply)
 * would double the memory each one holds. Fastify's onSend hooks do not run for it, so its head
 * carries their headers itself; the access log still gets its line when it ends.
 */
@Controller()
@UseGuards(SessionGuard)
export class EventsController {
  constructor(private readonly streams: EventStreams) {}

  @Get(eventStreamRoute.path)
  stream(@CurrentUser() user: AuthenticatedUser, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.streams.open(user, parseLastEventId(request.headers['last-event-id']), () => {
      reply.hijack();
      return reply.raw.writeHead(200, {
        ...SECURITY_HEADERS,
        ...(reply.getHeaders() as OutgoingHttpHeaders),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      });
    });
  }
}
