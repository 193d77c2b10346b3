// Package ptot owns seed 000's end-to-end packet-loss model over the legs of
// a Starlink path (its eqs. 1–2):
//
//	p_tot = 1 − (1−p_cap)(1−p_at)(1−p_ho)(1−p_gw)·Π_i (1−p_isl,i)
//
// with p_cap the satellite-to-terminal capacity drop, p_at atmospheric
// attenuation, p_ho the handover drop, p_gw = p_at(gw) the gateway link and
// p_isl,i the i-th inter-satellite link the packet crosses. Legs holds one
// set of these probabilities and Total evaluates the product; Slots gives
// one Legs per reconfiguration slot from an orbit schedule (the slot's ISL
// count from its route, handover loss only in a window after the serving
// satellite changes); Loss is the link stage that drops each packet with its
// slot's p_tot, from the run's seeded random stream, without allocating.
//
// Seed 000 gives the model's form, not its numbers (its Appendix A is not
// in our copy): every probability is the scenario's, none is a default.
package ptot
