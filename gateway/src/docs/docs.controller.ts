import { openApiDocumentRoute } from '@likeness/contracts';
import { Controller, Get } from '@nestjs/common';
import { buildOpenApiDocument } from './openapi.js';

@Controller()
export class DocsController {
  private readonly document = buildOpenApiDocument();

  @Get(openApiDocumentRoute.path)
  docs() {
    return this.document;
  }
}
