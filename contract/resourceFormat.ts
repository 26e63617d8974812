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
