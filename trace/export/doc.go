// Package export writes leolab's Starlink model, and recorded runs, as the
// traces Mahimahi and LeoReplayer users replay (package trace's formats).
//
// The model is recorded the way LeoReplayer records a real dish
// (leoreplayer/recorder: a saturating UDP flow for the capacity, a light
// ping for the delay), on the simulator with the scenario a user would
// run:
//   - delivery opportunities: a CBR flow of 1504-byte packets (one
//     opportunity each) at 1.2 × the direction's largest allocation
//     saturates the access link, so its deliveries are the model's service
//     schedule at full demand (allocation ramp and resets, TDMA frames,
//     outages, random loss). Each delivery, less the path's fixed
//     propagation (the access link's base OWD and the terrestrial leg,
//     which the delay trace carries), becomes the opportunity at the next
//     whole millisecond (Mahimahi's unit), so a replay delivers each packet
//     within [0, 1 ms) after the model did. Both directions are recorded,
//     each in its own run.
//   - delay: a light probe (100 bytes every 1 ms) alone on the path; each
//     10 ms interval's delay is the smallest of its probes' one-way
//     delays (the replaying link adds its own wait for an opportunity on
//     top), so reconfiguration outages appear as the probes sent into them
//     waiting for the link to come back.
package export
