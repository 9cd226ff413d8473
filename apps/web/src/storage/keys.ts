/** Every localStorage / sessionStorage key the console uses, in one place so they never collide. */
export const storageKeys = {
  token: 'rampart.token',
  language: 'rampart.lang',
  layout: 'rampart.layout',
  dynamicMap: 'rampart.dynamic.map',
} as const;
