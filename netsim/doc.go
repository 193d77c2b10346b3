// Package netsim runs a network on the sim engine: flows (our transport with
// a congestion controller, or constant-bit-rate probes) over a forward link
// that carries data and a reverse link that carries ACKs, and turns what
// happened into a result.Result. It is the simulator engine behind
// `leolab sim`; scenario files are translated into a Spec by package
// scenario.
//
// Every component keeps one pending wake-up in the event loop; a wake-up
// that has been superseded by an earlier one is recognised by its time and
// ignored, so nothing is ever cancelled and no closure is allocated per
// packet.
package netsim
