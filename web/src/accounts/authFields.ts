/** The fields of the sign-in and sign-up forms, as the API names them in its bodies. */
export type AuthField = 'email' | 'password' | 'firstName' | 'lastName';
export type FieldErrors = Partial<Record<AuthField, string>>;

const MIN_PASSWORD_LENGTH = 8;
/** Something@something.something: the rest is the server's to judge. */
const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function emailProblem(email: string): string | undefined {
  const trimmed = email.trim();
  if (trimmed === '') return 'Enter your e-mail address';
  return emailShape.test(trimmed) ? undefined : 'Enter an e-mail address such as name@example.com';
}

/**
 * What is wrong with a sign-in before it is sent, said on the fields (the forms have no browser
 * validation, so that sign-in and sign-up look alike); empty when nothing is.
 */
export function signInProblems({ email, password }: { email: string; password: string }): FieldErrors {
  const problems: FieldErrors = {};
  const onEmail = emailProblem(email);
  if (onEmail) problems.email = onEmail;
  if (password === '') problems.password = 'Enter your password';
  return problems;
}

/** As `signInProblems`, for a new account: the password at least 8 characters. */
export function signUpProblems({ email, password }: { email: string; password: string }): FieldErrors {
  const problems: FieldErrors = {};
  const onEmail = emailProblem(email);
  if (onEmail) problems.email = onEmail;
  if (password.length < MIN_PASSWORD_LENGTH) {
    problems.password = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  }
  return problems;
}

export const hasProblems = (problems: FieldErrors): boolean => Object.keys(problems).length > 0;

const authFields: readonly string[] = ['email', 'password', 'firstName', 'lastName'];

/** Whether a server's field name is one of these forms' fields. */
export const isAuthField = (field: string | undefined): field is AuthField =>
  field !== undefined && authFields.includes(field);
