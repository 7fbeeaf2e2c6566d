/**
 * A person's shown name: the provider's name, else the email, else the id (the contracts' personLabel, without the
 * zod its module brings).
 */
export function personName(person: { id: string; name?: string; email?: string }): string {
  return person.name || person.email || person.id;
}
