import type { ValidationError } from '@nestjs/common';
import { flattenValidationErrors } from './validation-errors';

describe('flattenValidationErrors', () => {
  it('names each failed constraint by its dotted field path, without repeating the field in the message', () => {
    const errors: ValidationError[] = [
      { property: 'prompt', constraints: { isString: 'prompt must be a string', isNotEmpty: 'prompt should not be empty' }, children: [] },
      {
        property: 'permissions',
        children: [
          { property: 'default', constraints: { isIn: 'default must be one of the following values: allow, deny, ask' }, children: [] },
        ],
      },
      { property: 'tools', constraints: { isString: 'each value in tools must be a string' }, children: [] },
    ];
    expect(flattenValidationErrors(errors)).toEqual([
      { field: 'prompt', message: 'must be a string' },
      { field: 'prompt', message: 'should not be empty' },
      { field: 'permissions.default', message: 'must be one of the following values: allow, deny, ask' },
      { field: 'tools', message: 'each value in tools must be a string' },
    ]);
  });
});
