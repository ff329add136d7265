"""Training of the tile scanner's networks (PyTorch, CPU), as recipes (scripts/train/recipes/).

Layers, each importing only from itself and the layers before it in this list:
  data     sets on disk, augmentation, batches
  models   networks, ONNX weights read back, multi-network graphs, checkpoints
  loops    training loops (detector, classifier / flower reader / spotter, verifier)
  export   ONNX files
  recipe, checks, cli   the recipes, the smoke checks, the command (`npm run train`)
  tools    diagnostics (errors, edge_peaks, flower_mix)
"""
