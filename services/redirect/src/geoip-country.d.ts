// geoip-country ships no types; this covers the one call the redirect makes.
declare module 'geoip-country' {
  interface GeoCountry {
    /** ISO 3166-1 alpha-2. */
    country: string;
  }
  const geoip: {
    lookup(ip: string | number): GeoCountry | null;
  };
  export default geoip;
}
