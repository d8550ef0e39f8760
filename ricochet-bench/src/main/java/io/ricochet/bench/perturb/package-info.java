/**
 * The perturbation experiments of the QSM and Bimodal Multicast papers in the simulator ({@code bench perturb}:
 * throughput at the healthy members while one member sleeps) and Bimodal Multicast's distribution of the number of
 * receivers per message ({@code bench receivers}).
 */
package io.ricochet.bench.perturb;
