// class-validator's error tree as field errors: one entry per failed constraint, each naming the
// dotted path of the field (`permissions.default`, `tools.2`), so a client can point at the input.
import { BadRequestException, ValidationPipe, type ValidationError } from '@nestjs/common';
import type { FieldError } from '../../common/request-errors';

export function flattenValidationErrors(errors: readonly ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message: messageOf(e.property, message) }));
    return [...own, ...flattenValidationErrors(e.children ?? [], field)];
  });
}

// class-validator writes "prompt must be a string": the field is named apart, so drop the repeat
function messageOf(property: string, message: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}

/** Bodies and queries are checked against their DTO: unknown fields are errors too (a typo never passes silently). */
export function apiValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    exceptionFactory: (errors) => new BadRequestException({ message: 'invalid request', errors: flattenValidationErrors(errors) }),
  });
}
