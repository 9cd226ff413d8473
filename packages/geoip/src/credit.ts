/**
 * DB-IP Lite is CC BY 4.0: any page that shows or uses its results must credit DB-IP with a link.
 * The console shows these wherever an area, or an address's country, appears.
 */
export const geoIpCredit = 'IP geolocation by DB-IP (CC BY 4.0)';
export const geoIpCreditUrl = 'https://db-ip.com/';
