import type { LoggerService } from '@nestjs/common';
import { pino, type Logger } from 'pino';
import { currentCorrelationId } from './correlation.js';

export interface LoggerOptions {
  name: string;
  level: string;
  format: 'json' | 'pretty';
}

/** A pino logger whose every line carries the current correlation id. */
export function createLogger(options: LoggerOptions): Logger {
  return pino({
    name: options.name,
    level: options.level,
    base: { service: options.name },
    mixin: () => {
      const correlationId = currentCorrelationId();
      return correlationId ? { correlationId } : {};
    },
    redact: {
      paths: [
        'password',
        '*.password',
        'refreshToken',
        '*.refreshToken',
        'accessToken',
        '*.accessToken',
        'req.headers.cookie',
      ],
      censor: '[redacted]',
    },
    ...(options.format === 'pretty'
      ? {
          transport: {
            target: 'pino-pretty',
            options: { colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname,service' },
          },
        }
      : {}),
  });
}

export function logFormat(config: { NODE_ENV: string; LOG_FORMAT?: 'json' | 'pretty' | undefined }): 'json' | 'pretty' {
  return config.LOG_FORMAT ?? (config.NODE_ENV === 'development' ? 'pretty' : 'json');
}

/** Lets Nest write through pino. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}

export const LOGGER = Symbol('LOGGER');
export type { Logger };
