/**
 * How a driver of the engine keeps an engine and its sockets in step with the group views it learns: the
 * reconciliation of views into membership events and socket joins ({@link io.ricochet.membership.ViewReconciler})
 * and the sockets it opens and closes per group ({@link io.ricochet.membership.GroupSockets}). The daemon drives it
 * from the GMS; nothing in it knows the daemon, so a test or a simulation can drive it with views of its own.
 */
package io.ricochet.membership;
