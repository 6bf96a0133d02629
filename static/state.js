// The booking in progress, kept in memory until Book flight creates it on the server.
const START = {
  tripType: "return",
  results: null,      // last search answer
  outward: null,      // selected flight objects
  return: null,
  passenger: null,    // normalized by the server
  fare: null,         // the chosen fare family, where the search offers them (hard suite)
};
export const flow = { ...START };

// As a newly loaded page has it (a switch to another scenario).
export function restartFlow() {
  Object.assign(flow, START);
}

export function resetFlow() {
  Object.assign(flow, { results: null, outward: null, return: null, passenger: null, fare: null });
}
