// The booking in progress, kept in memory until Book flight creates it on the server.
export const flow = {
  tripType: "return",
  results: null,      // last search answer
  outward: null,      // selected flight objects
  return: null,
  passenger: null,    // normalized by the server
  fare: null,         // the chosen fare family, where the search offers them (hard suite)
};

export function resetFlow() {
  Object.assign(flow, { results: null, outward: null, return: null, passenger: null, fare: null });
}
