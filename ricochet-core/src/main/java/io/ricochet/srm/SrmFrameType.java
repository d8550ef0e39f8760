package io.ricochet.srm;

import io.ricochet.wire.FrameType;

/**
 * SRM's control frame type ids, inside the range {@link FrameType#SRM_FIRST}..{@link FrameType#SRM_LAST} reserved
 * for it. SRM multicasts the shared {@link FrameType#DATA} frame for data.
 */
public final class SrmFrameType {
    /** A member asks the group for one data packet: {@link SrmRequestFlyweight}. */
    public static final int REQUEST = FrameType.SRM_FIRST;
    /** Any member holding a requested packet multicasts it again: {@link SrmRepairFlyweight}. */
    public static final int REPAIR = FrameType.SRM_FIRST + 1;
    /** A member's periodic report of what it sent and heard in a group: {@link SrmSessionFlyweight}. */
    public static final int SESSION = FrameType.SRM_FIRST + 2;

    private SrmFrameType() {
    }

    /** True for the ids above. */
    public static boolean isSrm(int type) {
        return type >= REQUEST && type <= SESSION;
    }

    public static String name(int type) {
        switch (type) {
            case REQUEST:
                return "SRM_REQUEST";
            case REPAIR:
                return "SRM_REPAIR";
            case SESSION:
                return "SRM_SESSION";
            default:
                return FrameType.name(type);
        }
    }
}
