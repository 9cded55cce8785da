import { safeParseRequest } from '@likeness/contracts';
import { DomainError } from '@likeness/nest-kit';
import { Injectable, type PipeTransform } from '@nestjs/common';
import type { z } from 'zod';

/** Parses a request body with a contract schema; a bad one is a 400 naming the field. */
@Injectable()
export class ZodBodyPipe<S extends z.ZodType> implements PipeTransform<unknown, z.output<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): z.output<S> {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new DomainError('COMMON.VALIDATION_FAILED', 'The request body must be a JSON object.');
    }
    const result = safeParseRequest(this.schema, value);
    if (!result.success) throw DomainError.validation(result.error);
    return result.data;
  }
}
