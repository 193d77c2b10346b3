// Package sim is leolab's discrete-event engine: a virtual clock, a 4-ary
// event heap with cancellation, and seeded random streams named per
// component. It knows nothing of packets or TCP; the run loop that wires
// transports and links onto it lives in package netsim.
//
// Events are delivered to a Handler with a small integer argument instead of
// a closure, so scheduling allocates nothing once the heap has grown.
// Ties in time are broken by scheduling order, which makes every run
// deterministic for a given seed.
package sim
