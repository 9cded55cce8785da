import { safeParseRequest } from '@likeness/contracts';
import { DomainError } from '@likeness/nest-kit';
import { Injectable, type PipeTransform } from '@nestjs/common';
import type { z } from 'zod';

/** A contract path (`/api/avatars/{id}`) in Nest's spelling (`/api/avatars/:id`). */
export function nestPath(path: string): string {
  return path.replace(/\{([A-Za-z]+)\}/g, ':$1');
}

/** Parses a path parameter or the query string with a contract schema; a bad one is a 400 with its message. */
@Injectable()
export class ZodPipe<S extends z.ZodType> implements PipeTransform<unknown, z.output<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): z.output<S> {
    const result = safeParseRequest(this.schema, value ?? {});
    if (!result.success) throw DomainError.validation(result.error);
    return result.data;
  }
}
