import { Controller, Get } from '@nestjs/common';
import { buildOpenApiDocument } from './openapi.js';

@Controller()
export class DocsController {
  private readonly document = buildOpenApiDocument();

  @Get('api/docs')
  docs() {
    return this.document;
  }
}
