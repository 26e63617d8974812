/**
 * The shapes of a resource file's access declarations (resources/<entity>.resource.json), read by the
 * generator that checks and emits them and by the server that acts on them.
 */

/**
 * Where a call's variant is decided (resources/*.resource.json `variantBy`): by one key of the list's
 * condition, by the stored row's field, or by which group of keys the body names.
 */
export interface VariantBy {
  in: 'condition' | 'row' | 'body';
  key?: string;
  /** Other names of the key a request may not use instead. */
  aliases?: string[];
  /** The code of each value; any other value needs the endpoint's own code. */
  values?: Record<string, string>;
  keys?: { name: string; keys: string[]; permission: string }[];
}

/**
 * Which rows of an entity a caller may read or change (resources/*.resource.json `scope`), beside the
 * permission code: administrators see every row; `everyone` lets any holder of the code see every row;
 * `administrator` lets nobody else see any; `owner` and `jurisdiction` let others see the rows they own
 * or that lie in their jurisdiction (either, when both are declared); `hook` leaves it to the entity's
 * server module. A caller with no jurisdiction sees no row by it: scopes fail closed.
 */
export type ScopeDecl =
  | 'everyone'
  | 'administrator'
  | 'hook'
  | {
      /** The column holding the owner's user id. */
      owner?: string;
      /** `self`: the row's own region and street columns; else the column naming its rental house. */
      jurisdiction?: string;
      /** The column naming a system user who rents in the jurisdiction (tenants). */
      renting?: string;
    };

/**
 * A list's filter (resources/*.resource.json `list.filters`). `Label` is how its name is given: the
 * declaration's words in every language (the generator's model), or the i18n key the console looks up.
 */
export interface ListFilter<Label> {
  key: string;
  op: 'eq' | 'like' | 'in' | 'gte' | 'lte' | 'between';
  field?: string;
  fields?: string[];
  selectBy?: { key: string; fields: Record<string, string> };
  /** Match the fields on this relation's row instead of the entity's own (a house name for an alarm). */
  relation?: string;
  /** A custom input the list component offers; filters naming the same widget share it. */
  widget?: string;
  /** The filter's name where its field's label would be ambiguous (resources.<entity>.filters.<key>). */
  label?: Label;
  /** How the console asks for it: text box or select (default), hidden, the jurisdiction picker, or radio buttons. */
  input?: 'text' | 'hidden' | 'jurisdiction' | 'radio';
  /** A value always sent for this key (a hidden filter fixing the list). */
  value?: string | number | boolean;
  /** input jurisdiction: the picker's kind and the condition key each chosen level fills. */
  jurisdiction?: { kind: string; keys: Record<string, string> };
}
