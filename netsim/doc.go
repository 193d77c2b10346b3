// Package netsim runs a network on the sim engine: flows (our transport with
// a congestion controller, or constant-bit-rate probes) over a forward link
// that carries data and a reverse link that carries ACKs, or over a
// topology of one-way links (hops) on which each flow has its own route and
// may move to another at given times (route.go), and turns what happened
// into a result.Result. It is the simulator engine behind `leolab sim`;
// scenario files are translated into a Spec by package scenario.
//
// A packet's route is fixed when it enters the network (packet.Packet
// carries its route and hop), so routing is a table lookup per hop and
// allocates nothing, and a move never touches packets in flight.
//
// Every component keeps one pending wake-up in the event loop; a wake-up
// that has been superseded by an earlier one is recognised by its time and
// ignored, so nothing is ever cancelled and no closure is allocated per
// packet.
package netsim
