import type { z } from 'zod';

/**
 * A react-admin form `validate` from the server's own zod schema (services/src/contracts): the
 * form is checked by the rules the API applies, each refusal shown at its field in the server's
 * words, and nothing is sent while one stands. `toBody` turns the form's values into the payload
 * when they differ (by default an emptied input, which react-admin holds as null, is left out, as
 * the server reads a missing field). With a form-level validator react-hook-form ignores the
 * inputs' own rules, so this is the one check.
 */
export const withoutEmpties = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null && value !== ''));

export const serverSchemaValidator =
  <Body>(schema: z.ZodType, toBody: (values: Record<string, unknown>) => Body = (values) => withoutEmpties(values) as Body) =>
  (values: Record<string, unknown>): Record<string, string> => {
    const parsed = schema.safeParse(toBody(values));
    if (parsed.success) return {};
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? 'root')] ??= issue.message;
    return errors;
  };
