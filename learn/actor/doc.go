// Package actor owns the actor network of leolab's learned congestion
// controllers and its file format: a small dense network (ReLU between
// layers, tanh on the single output, the action in [−1, 1]) evaluated in
// plain Go without allocating, the JSON file that stores its weights
// ("leolab-actor" version 1; files written as "leolab-orca-actor", the
// name it had while only Orca used it, still load), and the loading of a
// controller's actor from its model file or the embedded default.
//
// Who uses it: cc/orca and cc/astraea run an Actor per flow; learn/td3
// trains the weights and writes the File. It lives under learn because
// learn/td3 imports it (a cc/internal package could not be), and it
// imports nothing of the controllers, so neither side makes a cycle.
package actor
