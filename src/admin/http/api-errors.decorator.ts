// Route-specific error answers in the API document, in the one error shape. The answers every route
// can give (400, 401, 404 for a path id, 413, 500) are added to each operation by openapi-document.ts.
import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorBodyDto } from './error-body.dto';

/** `@ApiErrors({ 409: 'not running in this Loupe process' })` */
export function ApiErrors(answers: Record<number, string>): MethodDecorator {
  return applyDecorators(
    ...Object.entries(answers).map(([status, description]) => ApiResponse({ status: Number(status), type: ErrorBodyDto, description })),
  );
}
