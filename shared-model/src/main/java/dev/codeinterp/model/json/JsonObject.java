package dev.codeinterp.model.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Typed, validating reads from a parsed JSON object: a wrong type is a {@link JsonException}, never a ClassCastException. */
public final class JsonObject {
    private final Map<String, Object> map;

    public JsonObject(Map<String, Object> map) {
        this.map = map;
    }

    public static JsonObject parse(String text) {
        return new JsonObject(Json.parseObject(text));
    }

    public boolean has(String key) {
        return map.containsKey(key) && map.get(key) != null;
    }

    public String string(String key) {
        Object v = map.get(key);
        if (!(v instanceof String)) {
            throw new JsonException("'" + key + "' must be a string");
        }
        return (String) v;
    }

    public String optString(String key, String fallback) {
        return has(key) ? string(key) : fallback;
    }

    public long integer(String key) {
        Object v = map.get(key);
        if (v instanceof Long) {
            return (Long) v;
        }
        if (v instanceof Double && ((Double) v) == Math.rint((Double) v)) {
            return ((Double) v).longValue();
        }
        throw new JsonException("'" + key + "' must be an integer");
    }

    public long optInteger(String key, long fallback) {
        return has(key) ? integer(key) : fallback;
    }

    public Long optIntegerOrNull(String key) {
        return has(key) ? integer(key) : null;
    }

    public double number(String key) {
        Object v = map.get(key);
        if (!(v instanceof Number)) {
            throw new JsonException("'" + key + "' must be a number");
        }
        return ((Number) v).doubleValue();
    }

    public Double optNumber(String key) {
        return has(key) ? number(key) : null;
    }

    public boolean optBoolean(String key, boolean fallback) {
        if (!has(key)) {
            return fallback;
        }
        Object v = map.get(key);
        if (!(v instanceof Boolean)) {
            throw new JsonException("'" + key + "' must be true or false");
        }
        return (Boolean) v;
    }

    @SuppressWarnings("unchecked")
    public JsonObject object(String key) {
        Object v = map.get(key);
        if (!(v instanceof Map)) {
            throw new JsonException("'" + key + "' must be an object");
        }
        return new JsonObject((Map<String, Object>) v);
    }

    public JsonObject optObject(String key) {
        return has(key) ? object(key) : new JsonObject(new LinkedHashMap<>());
    }

    @SuppressWarnings("unchecked")
    public List<Object> list(String key) {
        Object v = map.get(key);
        if (!(v instanceof List)) {
            throw new JsonException("'" + key + "' must be a list");
        }
        return (List<Object>) v;
    }

    public List<Object> optList(String key) {
        return has(key) ? list(key) : new ArrayList<>();
    }

    public List<String> stringList(String key) {
        List<String> out = new ArrayList<>();
        for (Object o : optList(key)) {
            if (!(o instanceof String)) {
                throw new JsonException("'" + key + "' must be a list of strings");
            }
            out.add((String) o);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    public List<JsonObject> objectList(String key) {
        List<JsonObject> out = new ArrayList<>();
        for (Object o : optList(key)) {
            if (!(o instanceof Map)) {
                throw new JsonException("'" + key + "' must be a list of objects");
            }
            out.add(new JsonObject((Map<String, Object>) o));
        }
        return out;
    }

    public Map<String, Object> asMap() {
        return map;
    }
}
