// One JSON Schema validator for every MCP client and server in the process. Left to itself the SDK
// builds a fresh Ajv (with every string format) for each Client and each Server — two per trial — and
// compiles each tool's output schema again on every listing. Compiled validators are kept by the
// schema's JSON text (the same tool lists the same schema each time), a bounded number of them.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

const MAX_COMPILED = 1_000;

export class CachingSchemaValidator implements jsonSchemaValidator {
  private readonly ajv = new AjvJsonSchemaValidator();
  private readonly compiled = new Map<string, JsonSchemaValidator<unknown>>();

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const key = JSON.stringify(schema);
    let validator = this.compiled.get(key);
    if (!validator) {
      validator = this.ajv.getValidator<unknown>(schema);
      // the oldest goes first: a long-lived server meeting ever new external schemas stays bounded
      if (this.compiled.size >= MAX_COMPILED) this.compiled.delete(this.compiled.keys().next().value!);
      this.compiled.set(key, validator);
    }
    return validator as JsonSchemaValidator<T>;
  }

  get size(): number {
    return this.compiled.size;
  }
}

let shared: CachingSchemaValidator | undefined;

/** The process's validator, created on first use. */
export function sharedSchemaValidator(): CachingSchemaValidator {
  return (shared ??= new CachingSchemaValidator());
}
