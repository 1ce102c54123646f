import { z } from 'zod';

/**
 * The message of a validation issue whose schema gave none, in the seeds' Laravel-like wording
 * ('The reference field is required.', 'The search may not be greater than 100 characters.').
 * Without it zod answers in its own words ('Invalid input: expected string, received undefined'),
 * which the error mapper would pass on to a person (API.md: every message is readable).
 *
 * Installed for the whole process by importing this module (every contract imports fields.ts,
 * which imports it), so the api's route schemas, its multipart forms and the web apps' form checks
 * all answer the same. A message a schema or check gives itself always wins over this one.
 */
export function readableIssue(issue: z.core.$ZodRawIssue): string {
  const label = labelOf(issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return issue.path?.length ? `The ${label} field is required.` : 'The request body is required.';
      return `The ${label} must be ${expectedNoun(String(issue.expected))}.`;
    case 'too_big': {
      const max = formatBound(issue.maximum);
      if (issue.origin === 'string') return `The ${label} may not be greater than ${max} characters.`;
      if (issue.origin === 'array' || issue.origin === 'set') return `The ${label} may not have more than ${max} items.`;
      return `The ${label} may not be greater than ${max}.`;
    }
    case 'too_small': {
      const min = formatBound(issue.minimum);
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? `The ${label} field is required.` : `The ${label} must be at least ${min} characters.`;
      if (issue.origin === 'array' || issue.origin === 'set') return `The ${label} must have at least ${min} items.`;
      return `The ${label} must be at least ${min}.`;
    }
    case 'invalid_format':
      if (issue.format === 'regex') return `The ${label} format is invalid.`;
      return `The ${label} must be a valid ${formatNoun(String(issue.format))}.`;
    case 'not_multiple_of':
      return `The ${label} must be a multiple of ${formatBound(issue.divisor)}.`;
    case 'unrecognized_keys':
      return `These fields are not accepted here: ${(issue.keys ?? []).join(', ')}.`;
    case 'invalid_value':
      return `The selected ${label} is invalid.`;
    default:
      return `The ${label} is invalid.`;
  }
}

/** The field a person knows: the last named key of the path, underscores as spaces ('old_password' → 'old password'). */
function labelOf(path: readonly PropertyKey[] | undefined): string {
  const key = [...(path ?? [])].reverse().find((part): part is string => typeof part === 'string');
  return key ? key.replace(/_/g, ' ').trim() || 'value' : 'value';
}

function expectedNoun(expected: string): string {
  switch (expected) {
    case 'string': return 'text';
    case 'number': case 'int': case 'bigint': return 'a number';
    case 'boolean': return 'true or false';
    case 'array': return 'a list';
    case 'object': case 'record': return 'an object';
    case 'date': return 'a date';
    default: return 'valid';
  }
}

function formatNoun(format: string): string {
  switch (format) {
    case 'email': return 'email address';
    case 'uuid': case 'guid': return 'id';
    case 'url': return 'URL';
    case 'regex': return 'value';
    default: return format.replace(/_/g, ' ');
  }
}

const formatBound = (value: unknown): string => (typeof value === 'number' || typeof value === 'bigint' ? value.toLocaleString('en-US') : String(value));

z.config({ customError: readableIssue });
