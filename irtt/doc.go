// Package irtt reads the JSON output of irtt (heistp/irtt, the isochronous
// round-trip tester: `irtt client -o file.json`, gzipped when the name ends
// in .gz) into leolab's terms: per packet the client's send and receive
// times, the server's receive and send times, the one-way delays up
// (send delay) and down (receive delay), the RTT and which way a lost
// packet was lost. From that it gives the prober a probe trace of either
// direction (Capture.Trace) and the analysis a flow (Capture.Flow).
//
// The reader bounds what it holds by the input's size: the JSON is
// decoded from the bytes given, a gzip stream is read up to 256 times its
// compressed size (deflate's ratio on irtt's JSON is ~10; a larger one is
// a bomb, not a capture), and every number read is checked before it
// becomes a time: a send time within a week of the first, delays within
// ±10 min (internal/quantity). Errors name the file and the field
// (round_trips[i].delay.send) and what is allowed.
//
// irtt's one-way delays are differences of two hosts' wall clocks: they
// include the clocks' offset, which the prober's outages, schedule, frame
// and shifts do not need (they use differences), but its absolute delays
// and a base one-way delay do.
package irtt
