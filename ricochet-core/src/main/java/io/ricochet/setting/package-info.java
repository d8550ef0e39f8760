/**
 * The declaration of a setting ({@link io.ricochet.setting.Setting}): name, type, default, one-line description and
 * who must agree. It depends on nothing of ours, so that the protocol packages declare their own settings beside the
 * configs that use them, and the daemon, the simulator and the docs read those declarations.
 */
package io.ricochet.setting;
