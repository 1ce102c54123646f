/**
 * Errors a command or query may answer with. The api maps each to its HTTP status (api/errors.ts);
 * their messages are shown to people, so they are written for people.
 */
export class DomainError extends Error {
  override name = 'DomainError';
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** A business rule refused the command: 422. */
export class RuleViolation extends DomainError {
  override name = 'RuleViolation';
}

export class NotFound extends DomainError {
  override name = 'NotFound';
}

export class Unauthenticated extends DomainError {
  override name = 'Unauthenticated';
  constructor(message = 'Unauthenticated.') {
    super(message);
  }
}

export class Forbidden extends DomainError {
  override name = 'Forbidden';
  constructor(message = 'You are not allowed to do this.') {
    super(message);
  }
}

/** The stream moved on since it was read. Handlers retry from a fresh read, then answer 409. */
export class ConcurrencyConflict extends Error {
  override name = 'ConcurrencyConflict';
  constructor(
    readonly streamId: string,
    readonly expectedVersion: number | 'any',
    readonly actualVersion: number | null,
  ) {
    super(`Stream ${streamId} is at version ${actualVersion ?? 'unknown'}, expected ${expectedVersion}`);
  }
}

export class TooManyRequests extends DomainError {
  override name = 'TooManyRequests';
}
