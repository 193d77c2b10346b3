// Package fixed owns a controller with a constant congestion window: it
// neither grows nor backs off, whatever the ACKs say. It is a baseline
// (a window-limited flow whose rate is cwnd/RTT) and the model of the
// seed-000 dataset's "ccp" runs.
//
// Those runs deployed Copa through the CCP framework, and the deployment
// was broken (../shared/data/README.md: near-zero throughput everywhere).
// The real end summaries say how: throughput × mean RTT of every
// dedicated ccp run is 14.3–17.6 KB in both directions, from 31 ms
// (Sydney) to 412 ms (São Paulo), and 14.1–14.7 KB in every uplink
// concurrent run: ten 1448-byte segments, the initial window of RFC 6928
// that a CCP datapath keeps until its user-space agent sets another, which
// never happened. A window of 10 segments is what Params "cwnd" defaults
// to.
package fixed
