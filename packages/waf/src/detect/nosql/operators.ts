/**
 * MongoDB query operators, by what they mean in a request. `clear` ones change what a query
 * matches or run code ($ne, $gt, $regex, $where…): no form or API has a reason to send them as
 * keys. `builder` ones are what query-builder APIs (Strapi, Directus) take from their clients
 * ($eq, $in, $text…): suspicious only.
 */
export const clearOperators: ReadonlySet<string> = new Set([
  '$where', '$function', '$accumulator', '$expr', '$jsonschema', '$regex', '$ne', '$gt', '$gte', '$lt', '$lte',
  '$nin', '$exists', '$or', '$nor', '$not', '$elemmatch', '$lookup', '$merge', '$out',
]);

export const builderOperators: ReadonlySet<string> = new Set([
  '$eq', '$in', '$and', '$all', '$size', '$mod', '$text', '$options', '$search', '$slice', '$type',
]);
