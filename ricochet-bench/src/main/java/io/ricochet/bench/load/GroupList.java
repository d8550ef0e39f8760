package io.ricochet.bench.load;

import io.ricochet.support.ParsingConverter;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Group ids written as a comma-separated list of single ids and inclusive ranges: {@code 100..115},
 * {@code 1,2,7} or {@code 100..103,200}. Order is kept; a repeated id is refused. Immutable.
 */
public final class GroupList {
    /** The most groups one list may hold: a daemon's largest max-groups (a sink in 10 000 groups, issue 16). */
    public static final int MAX_GROUPS = 65_536;

    private final int[] ids;

    private GroupList(int[] ids) {
        this.ids = ids;
    }

    /**
     * Parses a group list.
     *
     * @throws IllegalArgumentException with a message fit for a user if {@code text} is not a valid list
     */
    public static GroupList parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("no groups given; write e.g. 100..115 or 1,2,7");
        }
        Set<Integer> ids = new LinkedHashSet<>();
        for (String part : text.split(",", -1)) {
            String item = part.strip();
            int dots = item.indexOf("..");
            long first = number(dots < 0 ? item : item.substring(0, dots), text);
            long last = dots < 0 ? first : number(item.substring(dots + 2), text);
            if (last < first) {
                throw new IllegalArgumentException("range '" + item + "' ends before it starts");
            }
            if (last - first + ids.size() >= MAX_GROUPS) {
                throw new IllegalArgumentException("'" + text + "' names more than " + MAX_GROUPS + " groups");
            }
            for (long id = first; id <= last; id++) {
                if (!ids.add((int) id)) {
                    throw new IllegalArgumentException("group " + id + " is listed twice in '" + text + "'");
                }
            }
        }
        return new GroupList(ids.stream().mapToInt(Integer::intValue).toArray());
    }

    /** A list of exactly these ids, in this order. */
    public static GroupList of(int... ids) {
        return parse(format(ids));
    }

    /** The ids, in order (a copy). */
    public int[] ids() {
        return ids.clone();
    }

    public int size() {
        return ids.length;
    }

    /** The list in its shortest form: runs of three or more consecutive ids written as ranges. */
    @Override
    public String toString() {
        return format(ids);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof GroupList list && Arrays.equals(ids, list.ids);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(ids);
    }

    private static String format(int[] ids) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < ids.length) {
            int j = i;
            while (j + 1 < ids.length && ids[j + 1] == ids[j] + 1) {
                j++;
            }
            if (out.length() > 0) {
                out.append(',');
            }
            if (j - i >= 2) {
                out.append(ids[i]).append("..").append(ids[j]);
                i = j + 1;
            } else {
                out.append(ids[i]);
                i++;
            }
        }
        return out.toString();
    }

    private static long number(String digits, String text) {
        try {
            return Integer.parseInt(digits.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + digits.strip() + "' in '" + text
                    + "' is not a group id (a 32-bit integer)");
        }
    }

    /** Picocli converter for group-list options. */
    public static final class Converter extends ParsingConverter<GroupList> {
        public Converter() {
            super(GroupList::parse);
        }
    }
}
