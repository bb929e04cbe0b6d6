// The one error shape (./error-mapping.ts) as the API document shows it.
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { FieldError } from '../../common/request-errors';
import type { ErrorBody } from './error-mapping';

export class FieldErrorDto implements FieldError {
  @ApiProperty({ description: 'dotted path of the input at fault', example: 'permissions.default' }) field!: string;
  @ApiProperty({ example: 'must be one of the following values: allow, deny, ask' }) message!: string;
}

export class ErrorBodyDto implements ErrorBody {
  @ApiProperty({ example: 400 }) statusCode!: number;
  @ApiProperty({ example: 'Bad Request' }) error!: string;
  @ApiProperty({ example: 'invalid request' }) message!: string;
  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'one per failed constraint, where the input was at fault' })
  errors?: FieldErrorDto[];
  @ApiPropertyOptional({ description: 'a 409 from the MCP registry: the taken name' }) name?: string;
  @ApiProperty({ description: 'also the x-correlation-id response header; in the server log beside the error' }) correlationId!: string;
}
