/**
 * A percent escape of a control byte other than tab, line feed and carriage return (`%01`–`%08`,
 * `%0b`, `%0c`, `%0e`–`%1f`, `%7f`): the decoded value holds a byte no form or link writes (CRS
 * 920271). Read on the escaped text, so no decoding is needed; the query and header checks use it.
 */
export const escapedControlByte = /%(?:0[1-8bcef]|1[0-9a-f]|7f)/i;
