// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// A Multicall3-compatible aggregator for the local chains: same ABI as the contract deployed at
/// 0xcA11bde05977b3631167028862bE2a173976CA11 on public networks, written for Tessera's test stack.
contract Multicall3 {
    struct Call {
        address target;
        bytes callData;
    }

    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Call3Value {
        address target;
        bool allowFailure;
        uint256 value;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    function aggregate(Call[] calldata calls) public payable returns (uint256 blockNumber, bytes[] memory returnData) {
        blockNumber = block.number;
        returnData = new bytes[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory data) = calls[i].target.call(calls[i].callData);
            require(success, "Multicall3: call failed");
            returnData[i] = data;
        }
    }

    function tryAggregate(bool requireSuccess, Call[] calldata calls) public payable returns (Result[] memory results) {
        results = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory data) = calls[i].target.call(calls[i].callData);
            if (requireSuccess) require(success, "Multicall3: call failed");
            results[i] = Result(success, data);
        }
    }

    function aggregate3(Call3[] calldata calls) public payable returns (Result[] memory results) {
        results = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory data) = calls[i].target.call(calls[i].callData);
            if (!calls[i].allowFailure) _bubble(success, data);
            results[i] = Result(success, data);
        }
    }

    function aggregate3Value(Call3Value[] calldata calls) public payable returns (Result[] memory results) {
        uint256 valueSent = 0;
        results = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            valueSent += calls[i].value;
            (bool success, bytes memory data) = calls[i].target.call{value: calls[i].value}(calls[i].callData);
            if (!calls[i].allowFailure) _bubble(success, data);
            results[i] = Result(success, data);
        }
        require(msg.value == valueSent, "Multicall3: value mismatch");
    }

    function getBlockNumber() public view returns (uint256) {
        return block.number;
    }

    function getBlockHash(uint256 blockNumber) public view returns (bytes32) {
        return blockhash(blockNumber);
    }

    function getCurrentBlockTimestamp() public view returns (uint256) {
        return block.timestamp;
    }

    function getCurrentBlockCoinbase() public view returns (address) {
        return block.coinbase;
    }

    function getBasefee() public view returns (uint256) {
        return block.basefee;
    }

    function getChainId() public view returns (uint256) {
        return block.chainid;
    }

    function getEthBalance(address addr) public view returns (uint256) {
        return addr.balance;
    }

    function _bubble(bool success, bytes memory data) private pure {
        if (success) return;
        if (data.length == 0) revert("Multicall3: call failed");
        assembly {
            revert(add(data, 32), mload(data))
        }
    }
}
