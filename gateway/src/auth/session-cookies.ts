import type { Session } from '@likeness/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '@likeness/nest-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../gateway.config.js';

export const ACCESS_COOKIE = 'likeness_access';
export const REFRESH_COOKIE = 'likeness_refresh';
/** Marks a browser that signed in to an account before (see auth's DeviceTokens); outlives logouts. */
export const DEVICE_COOKIE = 'likeness_device';
/** Cookies go only to the API, never to static files. */
const COOKIE_PATH = '/api';
/** The device cookie matters only to a login. */
const DEVICE_COOKIE_PATH = '/api/login';

/**
 * Sets and clears the session cookies: httpOnly, SameSite=Strict, Secure over HTTPS. Clearing
 * leaves the device cookie: it is no session, only the memory of a successful login.
 */
@Injectable()
export class SessionCookies {
  constructor(@Inject(APP_CONFIG) private readonly config: GatewayConfig) {}

  set(request: FastifyRequest, reply: FastifyReply, session: Session): void {
    const options = this.options(request);
    const secondsUntil = (iso: string) => Math.max(0, Math.floor((Date.parse(iso) - Date.now()) / 1000));
    void reply.setCookie(ACCESS_COOKIE, session.accessToken, {
      ...options,
      maxAge: secondsUntil(session.accessTokenExpiresAt),
    });
    void reply.setCookie(REFRESH_COOKIE, session.refreshToken, {
      ...options,
      maxAge: secondsUntil(session.refreshTokenExpiresAt),
    });
    if (session.deviceToken && session.deviceTokenExpiresAt) {
      void reply.setCookie(DEVICE_COOKIE, session.deviceToken, {
        ...options,
        path: DEVICE_COOKIE_PATH,
        maxAge: secondsUntil(session.deviceTokenExpiresAt),
      });
    }
    // The rest of this request sees the new access token.
    (request.cookies as Record<string, string>)[ACCESS_COOKIE] = session.accessToken;
  }

  clear(request: FastifyRequest, reply: FastifyReply): void {
    void reply.clearCookie(ACCESS_COOKIE, this.options(request));
    void reply.clearCookie(REFRESH_COOKIE, this.options(request));
  }

  refreshToken(request: FastifyRequest): string | undefined {
    return request.cookies?.[REFRESH_COOKIE] || undefined;
  }

  deviceToken(request: FastifyRequest): string | undefined {
    return request.cookies?.[DEVICE_COOKIE] || undefined;
  }

  private options(request: FastifyRequest) {
    return { httpOnly: true, sameSite: 'strict' as const, secure: this.secure(request), path: COOKIE_PATH };
  }

  private secure(request: FastifyRequest): boolean {
    if (this.config.COOKIE_SECURE === 'auto') return request.protocol === 'https';
    return this.config.COOKIE_SECURE === 'true';
  }
}
