// Query strings arrive as text: these read them as the numbers, flags and lists their DTOs declare
// (a value that does not convert stays as given, so the validator names it).
import { Transform } from 'class-transformer';

export const ToInt = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value));

export const ToNumber = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value,
  );

export const ToBoolean = () =>
  Transform(({ value }: { value: unknown }) =>
    value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value,
  );

export const ToList = () => Transform(({ value }: { value: unknown }) => (value === undefined || Array.isArray(value) ? value : [value]));
