"""Writes a tiny deterministic GGUF chat model for the assistant tests: python3 make-model.py OUT.gguf

What it is: a 1-layer llama whose attention and feed-forward weights are zero, so the residual
stream carries only the current token's embedding and each next token depends on the last token
alone. Its output matrix maps a few "context" tokens to the next token we want, and its vocabulary
holds whole strings as single tokens (the complete Hermes tool call, the fixed answers). Its chat
template renders the conversation as text and ends the prompt with a control token chosen from the
last message: a user message asks for the tool call; a tool message whose content contains "42"
(what the tool call's code prints) asks for ANSWER_SEEN (two tokens), any other tool message for ANSWER_OTHER.

What it proves when llama-server serves it: the real OpenAI wire format of llama-server, its
streaming, its Hermes tool-call parsing (the template holds "<tool_call>", so llama-server picks that
format under --jinja), and that our loop sends the tool's output back (the answer depends on it).
What it does not prove: anything about model quality; it "writes" one fixed program.
"""
import sys

import numpy as np
import gguf

TOOL_CALL = ('<tool_call>\n{"name": "run_code", "arguments": '
             '{"code": "print(6 * 7)", "language": "python"}}\n</tool_call>')
# Two tokens, so the answer streams as two content deltas.
ANSWER_SEEN = ("The code printed 42, ", "so the answer is 42.")
ANSWER_OTHER = "The code did not print what I expected."

# The prompt ends with one of these (control tokens: matched whole in the prompt, never printed).
ASK, RESULT_SEEN, RESULT_OTHER = "<|ask|>", "<|result_42|>", "<|result_other|>"
BOS, EOS = "<s>", "</s>"

# Renders like Qwen 2.5's Hermes-style template (llama-server finds the tool-call markers by
# rendering it), then steers: the generation prompt is a control token chosen from the last message.
CHAT_TEMPLATE = (
    "{%- if tools %}<|system|>Tools: {{ tools | tojson }}\n{% endif -%}"
    "{%- for message in messages -%}"
    "{%- if message.role == 'assistant' -%}"
    "<|assistant|>{% if message.content %}{{ message.content }}{% endif %}"
    "{%- if message.tool_calls %}{% for tool_call in message.tool_calls %}"
    "{%- if tool_call.function is defined %}{% set tool_call = tool_call.function %}{% endif %}"
    "<tool_call>\n{\"name\": \"{{ tool_call.name }}\", \"arguments\": "
    "{{ tool_call.arguments | tojson }}}\n</tool_call>"
    "{%- endfor %}{% endif %}" + EOS + "\n"
    "{%- else -%}"
    "<|{{ message.role }}|>{% if message.content is string %}{{ message.content }}{% endif %}\n"
    "{%- endif -%}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}"
    "{%- set last = messages[-1] -%}"
    "{%- if last.role == 'tool' -%}"
    "{%- if last.content is string and '42' in last.content %}" + RESULT_SEEN +
    "{%- else %}" + RESULT_OTHER + "{% endif -%}"
    "{%- else %}" + ASK + "{% endif -%}"
    "{%- endif -%}"
)


def byte_tokens():
    """GPT-2's byte-to-unicode table: every byte is a token, so any text tokenizes."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + \
        list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return [chr(c) for c in cs]


def main(out_path):
    tokens = [BOS, EOS, ASK, RESULT_SEEN, RESULT_OTHER]
    types = [gguf.TokenType.CONTROL] * len(tokens)
    tokens += [TOOL_CALL, *ANSWER_SEEN, ANSWER_OTHER]
    types += [gguf.TokenType.USER_DEFINED] * 4
    for piece in byte_tokens():
        tokens.append(piece)
        types.append(gguf.TokenType.NORMAL)
    # llama.cpp's BPE loader wants at least one merge, and the merged token in the vocabulary.
    tokens.append("ab")
    types.append(gguf.TokenType.NORMAL)
    merges = ["a b"]
    index = {t: i for i, t in enumerate(tokens)}

    # next token after each context token; each context token owns one embedding dimension
    chain = [(ASK, TOOL_CALL), (TOOL_CALL, EOS),
             (RESULT_SEEN, ANSWER_SEEN[0]), (ANSWER_SEEN[0], ANSWER_SEEN[1]), (ANSWER_SEEN[1], EOS),
             (RESULT_OTHER, ANSWER_OTHER), (ANSWER_OTHER, EOS)]
    n_vocab, n_embd, n_ff, n_head = len(tokens), 16, 32, 2
    embd = np.zeros((n_vocab, n_embd), dtype=np.float32)
    output = np.zeros((n_vocab, n_embd), dtype=np.float32)
    for dim, (context, following) in enumerate(chain):
        embd[index[context], dim] = 1.0
        output[index[following], dim] = 100.0

    w = gguf.GGUFWriter(out_path, "llama")
    w.add_name("codeinterp-test-tool-caller")
    w.add_context_length(8192)
    w.add_embedding_length(n_embd)
    w.add_block_count(1)
    w.add_feed_forward_length(n_ff)
    w.add_head_count(n_head)
    w.add_head_count_kv(n_head)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_rope_dimension_count(n_embd // n_head)
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("default")
    w.add_token_list(tokens)
    w.add_token_types(types)
    w.add_token_merges(merges)
    w.add_bos_token_id(index[BOS])
    w.add_eos_token_id(index[EOS])
    w.add_add_bos_token(False)
    w.add_chat_template(CHAT_TEMPLATE)

    zeros = lambda *shape: np.zeros(shape, dtype=np.float32)
    ones = lambda n: np.ones((n,), dtype=np.float32)
    w.add_tensor("token_embd.weight", embd)
    w.add_tensor("output_norm.weight", ones(n_embd))
    w.add_tensor("output.weight", output)
    w.add_tensor("blk.0.attn_norm.weight", ones(n_embd))
    for name in ("attn_q", "attn_k", "attn_v", "attn_output"):
        w.add_tensor(f"blk.0.{name}.weight", zeros(n_embd, n_embd))
    w.add_tensor("blk.0.ffn_norm.weight", ones(n_embd))
    w.add_tensor("blk.0.ffn_gate.weight", zeros(n_ff, n_embd))
    w.add_tensor("blk.0.ffn_up.weight", zeros(n_ff, n_embd))
    w.add_tensor("blk.0.ffn_down.weight", zeros(n_embd, n_ff))

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    main(sys.argv[1])
