// The booking in progress, kept in memory until Book flight creates it on the server.
export const flow = {
  tripType: "return",
  results: null,      // last search answer
  outward: null,      // selected flight objects
  return: null,
  passenger: null,    // normalized by the server
};

export function resetFlow() {
  Object.assign(flow, { results: null, outward: null, return: null, passenger: null });
}
